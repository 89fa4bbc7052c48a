import { describe } from 'vitest';
import { runBuildCases, runRefuseCases } from './harness.js';
import { calendarBuild, calendarRefuse } from './cases/calendar.js';

describe('calendar tools build the upstream request the real API expects', () => runBuildCases(calendarBuild));
describe('calendar tools refuse inputs that break a rule, naming the parameter', () => runRefuseCases(calendarRefuse));
