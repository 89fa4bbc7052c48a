/** The worked example a tool's description ends with, for the tests that hold it to the tool. */

/** The JSON after the description's last line starting `Example...:`, its line breaks being whitespace between tokens. */
export function descriptionExample(description: string): unknown {
  const at = description.lastIndexOf('\nExample');
  if (at < 0) throw new Error('no line starting with Example');
  const rest = description.slice(at + 1);
  const open = rest.indexOf(': {');
  if (open < 0) throw new Error(`the example is not a JSON input: ${rest}`);
  return JSON.parse(rest.slice(open + 2).trim());
}
