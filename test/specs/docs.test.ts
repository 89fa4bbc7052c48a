import { describe } from 'vitest';
import { runBuildCases, runRefuseCases } from './harness.js';
import { docsBuild, docsRefuse } from './cases/docs.js';

describe('docs tools build the upstream request the real API expects', () => runBuildCases(docsBuild));
describe('docs tools refuse inputs that break a rule, naming the parameter', () => runRefuseCases(docsRefuse));
