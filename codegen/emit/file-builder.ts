import {
  StructureKind,
  type FunctionDeclarationStructure,
  type ImportDeclarationStructure,
  type InterfaceDeclarationStructure,
  type OptionalKind,
  type Project,
  type StatementStructures,
  type TypeAliasDeclarationStructure,
  type VariableStatementStructure,
} from 'ts-morph';

/**
 * Collects ts-morph statement structures and prints the file once: one `createSourceFile` with the whole structure
 * costs a fraction of many incremental `addX` manipulations (each of which re-parses the file).
 */
export class FileBuilder {
  private readonly statements: Array<StatementStructures | string> = [];

  constructor(
    private readonly project: Project,
    private readonly path: string,
  ) {}

  addImportDeclaration(s: OptionalKind<ImportDeclarationStructure>): void {
    this.statements.push({ ...s, kind: StructureKind.ImportDeclaration });
  }

  addInterface(s: OptionalKind<InterfaceDeclarationStructure>): void {
    this.statements.push({ ...s, kind: StructureKind.Interface });
  }

  addTypeAlias(s: OptionalKind<TypeAliasDeclarationStructure>): void {
    this.statements.push({ ...s, kind: StructureKind.TypeAlias });
  }

  addFunction(s: OptionalKind<FunctionDeclarationStructure>): void {
    this.statements.push({ ...s, kind: StructureKind.Function });
  }

  addVariableStatement(s: OptionalKind<VariableStatementStructure>): void {
    this.statements.push({ ...s, kind: StructureKind.VariableStatement });
  }

  addStatements(text: string): void {
    this.statements.push(text);
  }

  text(): string {
    const sf = this.project.createSourceFile(this.path, { statements: this.statements }, { overwrite: true });
    const text = sf.getFullText();
    this.project.removeSourceFile(sf);
    return text;
  }
}
