/**
 * A tool's input schema as form fields, and a submitted form back as the tool's input. One field per top-level
 * parameter: text for strings, a number field for integers and numbers, a checkbox for booleans, a select for an
 * enum, and JSON text for arrays and objects. An empty field is an absent parameter, so the service's validator
 * (which the explorer calls, like any caller) is what says what is missing or wrong, with its JSON pointers.
 */
import type { JsonSchema } from '../../types.js';

type Schema = { type?: string | string[]; enum?: unknown[]; description?: string; examples?: unknown[]; format?: string };

export interface FormField {
  name: string;
  kind: 'text' | 'number' | 'checkbox' | 'select' | 'json';
  required: boolean;
  description: string;
  options?: { value: string; selected: boolean }[];
  value: string;
  checked?: boolean;
  placeholder: string;
}

function typeOf(schema: Schema): string | undefined {
  return Array.isArray(schema.type) ? schema.type.find((t) => t !== 'null') : schema.type;
}

function kindOf(schema: Schema): FormField['kind'] {
  if (Array.isArray(schema.enum)) return 'select';
  switch (typeOf(schema)) {
    case 'integer':
    case 'number':
      return 'number';
    case 'boolean':
      return 'checkbox';
    case 'array':
    case 'object':
      return 'json';
    default:
      return 'text';
  }
}

export function formFields(inputSchema: JsonSchema, submitted: Record<string, string | undefined> = {}): FormField[] {
  const schema = inputSchema as { properties?: Record<string, Schema>; required?: string[] };
  const required = new Set(schema.required ?? []);
  return Object.entries(schema.properties ?? {}).map(([name, property]) => {
    const kind = kindOf(property);
    const value = submitted[`input.${name}`] ?? '';
    const example = Array.isArray(property.examples) && property.examples.length > 0 ? property.examples[0] : undefined;
    return {
      name,
      kind,
      required: required.has(name),
      description: property.description ?? '',
      value,
      placeholder: example === undefined ? '' : typeof example === 'string' ? example : JSON.stringify(example),
      ...(kind === 'checkbox' ? { checked: value === 'on' } : {}),
      ...(kind === 'select' ? { options: (property.enum ?? []).map((v) => ({ value: String(v), selected: String(v) === value })) } : {}),
    };
  });
}

/** The tool input from the form; a field that cannot be read as its type is reported with its parameter's pointer. */
export function inputFromForm(inputSchema: JsonSchema, form: Record<string, string | undefined>): { input: Record<string, unknown>; problems: { pointer: string; message: string }[] } {
  const schema = inputSchema as { properties?: Record<string, Schema> };
  const input: Record<string, unknown> = {};
  const problems: { pointer: string; message: string }[] = [];
  for (const [name, property] of Object.entries(schema.properties ?? {})) {
    const raw = form[`input.${name}`];
    const kind = kindOf(property);
    if (kind === 'checkbox') {
      if (raw === 'on') input[name] = true;
      continue;
    }
    if (raw === undefined || raw.trim() === '') continue;
    if (kind === 'number') {
      const n = Number(raw);
      if (Number.isFinite(n)) input[name] = n;
      else problems.push({ pointer: `/${name}`, message: `${name} must be ${typeOf(property) === 'integer' ? 'an integer' : 'a number'}` });
    } else if (kind === 'json') {
      try {
        input[name] = JSON.parse(raw) as unknown;
      } catch {
        problems.push({ pointer: `/${name}`, message: `${name} must be JSON (an ${typeOf(property) ?? 'value'})` });
      }
    } else if (kind === 'select' && Array.isArray(property.enum)) {
      input[name] = property.enum.find((v) => String(v) === raw) ?? raw;
    } else {
      input[name] = raw;
    }
  }
  return { input, problems };
}
