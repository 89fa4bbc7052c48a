/** The helper registry's hand-written arity must describe the functions the generated builders call. */
import { describe, expect, it } from 'vitest';
import { readHelperSignatures } from '../../codegen/model/helper-signatures.js';
import { newHelpersProject } from '../../codegen/project.js';
import { helperRegistry } from '../../runtime/helpers/index.js';

describe('helper signatures', () => {
  it('reads every registered helper with the arity the registry gives', () => {
    const signatures = readHelperSignatures(newHelpersProject());
    expect(Object.keys(signatures).sort()).toEqual(Object.keys(helperRegistry).sort());
    for (const [name, info] of Object.entries(helperRegistry)) expect(signatures[name]?.optionalParams, name).toHaveLength(info.arity);
  });

  it('refuses a registry arity that disagrees with the declaration', () => {
    expect(() => readHelperSignatures(newHelpersProject(), { eventEnd: { arity: 3, module: 'calendar.js' } })).toThrow(
      "gives 'eventEnd' arity 3, but its declaration takes 4 parameters",
    );
  });

  it('refuses a registered helper its module does not declare', () => {
    expect(() => readHelperSignatures(newHelpersProject(), { nowhere: { arity: 1, module: 'values.js' } })).toThrow(
      "registers 'nowhere' in values.js, but values.ts declares no function of that name",
    );
  });
});
