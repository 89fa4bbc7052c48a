import { describe } from 'vitest';
import { runBuildCases, runRefuseCases } from './harness.js';
import { sheetsBuild, sheetsRefuse } from './cases/sheets.js';

describe('sheets tools build the upstream request the real API expects', () => runBuildCases(sheetsBuild));
describe('sheets tools refuse inputs that break a rule, naming the parameter', () => runRefuseCases(sheetsRefuse));
