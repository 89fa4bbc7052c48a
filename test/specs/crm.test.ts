import { describe } from 'vitest';
import { runBuildCases, runRefuseCases } from './harness.js';
import { crmBuild, crmRefuse } from './cases/crm.js';

describe('crm tools build the upstream request the real API expects', () => runBuildCases(crmBuild));
describe('crm tools refuse inputs that break a rule, naming the parameter', () => runRefuseCases(crmRefuse));
