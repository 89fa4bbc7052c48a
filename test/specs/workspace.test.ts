import { describe } from 'vitest';
import { runBuildCases, runRefuseCases } from './harness.js';
import { workspaceBuild, workspaceRefuse } from './cases/workspace.js';

describe('workspace tools build the upstream request the real API expects', () => runBuildCases(workspaceBuild));
describe('workspace tools refuse inputs that break a rule, naming the parameter', () => runRefuseCases(workspaceRefuse));
