import { fileURLToPath } from 'node:url';
import { Project, SyntaxKind, type FunctionDeclaration } from 'ts-morph';
import { helperRegistry } from '../../runtime/helpers/index.js';
import type { HelperSignature } from './types.js';

const HELPERS_DIR = fileURLToPath(new URL('../../runtime/helpers/', import.meta.url));

/**
 * Reads each registered helper's declaration (syntax only, no type-check) to learn which arguments may be absent and
 * whether the result may be absent, so the compiled builders guard calls correctly: a helper whose parameter does not
 * accept undefined is not called when that argument is absent.
 */
export function readHelperSignatures(project: Project): Record<string, HelperSignature> {
  const out: Record<string, HelperSignature> = {};
  for (const name of Object.keys(helperRegistry).sort()) {
    const info = helperRegistry[name]!;
    const path = `${HELPERS_DIR}${info.module.replace(/\.js$/, '.ts')}`;
    const file = project.getSourceFile(path) ?? project.addSourceFileAtPath(path);
    const fn = findFunction(file.getFunctions(), name) ?? findVariableFunction(file, name);
    if (!fn) {
      // Declared in the registry but not found as a function: assume the worst (every argument may be absent,
      // the result may be absent), which only adds guards.
      out[name] = { name, arity: info.arity, module: info.module, optionalParams: Array(info.arity).fill(true), mayReturnUndefined: true };
      continue;
    }
    out[name] = {
      name,
      arity: info.arity,
      module: info.module,
      optionalParams: fn.params,
      mayReturnUndefined: fn.returns,
    };
  }
  return out;
}

interface FnShape {
  params: boolean[];
  returns: boolean;
}

function findFunction(fns: FunctionDeclaration[], name: string): FnShape | undefined {
  const fn = fns.find((f) => f.getName() === name);
  if (!fn) return undefined;
  const ret = fn.getReturnTypeNode()?.getText();
  return {
    params: fn.getParameters().map((p) => p.hasQuestionToken() || p.hasInitializer() || /\bundefined\b/.test(p.getTypeNode()?.getText() ?? 'unknown')),
    returns: ret === undefined || /\b(undefined|unknown|any)\b/.test(ret),
  };
}

function findVariableFunction(file: ReturnType<Project['addSourceFileAtPath']>, name: string): FnShape | undefined {
  const decl = file.getVariableDeclaration(name);
  const init = decl?.getInitializerIfKind(SyntaxKind.ArrowFunction);
  if (!init) return undefined;
  const ret = init.getReturnTypeNode()?.getText();
  return {
    params: init.getParameters().map((p) => p.hasQuestionToken() || p.hasInitializer() || /\bundefined\b/.test(p.getTypeNode()?.getText() ?? 'unknown')),
    returns: ret === undefined || /\b(undefined|unknown|any)\b/.test(ret),
  };
}
