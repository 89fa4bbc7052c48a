import { fileURLToPath } from 'node:url';
import { Project, SyntaxKind, type FunctionDeclaration } from 'ts-morph';
import { helperRegistry, type HelperInfo } from '../../runtime/helpers/index.js';
import type { HelperSignature } from './types.js';

const HELPERS_DIR = fileURLToPath(new URL('../../runtime/helpers/', import.meta.url));

/**
 * Reads each registered helper's declaration (syntax only, no type-check) to learn which arguments may be absent and
 * whether the result may be absent, so the compiled builders guard calls correctly: a helper whose parameter does not
 * accept undefined is not called when that argument is absent.
 */
export function readHelperSignatures(project: Project, registry: Readonly<Record<string, HelperInfo>> = helperRegistry): Record<string, HelperSignature> {
  const out: Record<string, HelperSignature> = {};
  for (const name of Object.keys(registry).sort()) {
    const info = registry[name]!;
    const path = `${HELPERS_DIR}${info.module.replace(/\.js$/, '.ts')}`;
    const file = project.getSourceFile(path) ?? project.addSourceFileAtPath(path);
    const fn = findFunction(file.getFunctions(), name) ?? findVariableFunction(file, name);
    // The registry's arity is what spec checks use; it must describe the function the builders will call.
    if (!fn) throw new Error(`runtime/helpers/index.ts registers '${name}' in ${info.module}, but ${info.module.replace(/\.js$/, '.ts')} declares no function of that name`);
    if (fn.params.length !== info.arity) {
      throw new Error(`runtime/helpers/index.ts gives '${name}' arity ${info.arity}, but its declaration takes ${fn.params.length} parameters`);
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
