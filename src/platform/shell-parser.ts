// Loading the bash grammar (tree-sitter-bash's WebAssembly build, run by web-tree-sitter). It is
// loaded on first use only: a relay in front of a server with no exec tool never pays for it
// (docs/decisions/0078-shell-grammar.md). The load is asynchronous; judging is not, so callers
// await `loadShellParser()` once before they judge a command.
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import type { ShellParser, SyntaxNode, SyntaxTree } from "../core/shell/syntax.js";

let loading: Promise<ShellParser> | undefined;
let loaded: ShellParser | undefined;

const require = createRequire(import.meta.url);

async function load(): Promise<ShellParser> {
  const { Parser, Language } = await import("web-tree-sitter");
  await Parser.init({
    // The runtime's own .wasm sits beside its JavaScript; hand over its bytes so that nothing is fetched.
    wasmBinary: readFileSync(require.resolve("web-tree-sitter/web-tree-sitter.wasm")),
  } as object);
  const bash = await Language.load(readFileSync(require.resolve("tree-sitter-bash/tree-sitter-bash.wasm")));
  const parser = new Parser();
  parser.setLanguage(bash);
  return {
    parse(text: string): SyntaxTree | undefined {
      const tree = parser.parse(text);
      if (tree === null) return undefined;
      try {
        return { rootNode: plainTree(tree.walk(), text), release: () => undefined };
      } finally {
        tree.delete();
      }
    },
  };
}

/** The fields of a cursor this module reads (web-tree-sitter's TreeCursor). */
interface Cursor {
  readonly nodeType: string;
  readonly nodeIsNamed: boolean;
  readonly nodeIsMissing: boolean;
  readonly startIndex: number;
  readonly endIndex: number;
  readonly currentFieldName: string | null;
  gotoFirstChild(): boolean;
  gotoNextSibling(): boolean;
  gotoParent(): boolean;
  delete(): void;
}

/** A node copied out of WebAssembly memory: reading it costs nothing more. */
class PlainNode implements SyntaxNode {
  readonly kids: PlainNode[] = [];
  readonly fields: Array<string | null> = [];
  hasError = false;
  constructor(
    private readonly source: string,
    readonly type: string,
    readonly isNamed: boolean,
    readonly isMissing: boolean,
    readonly startIndex: number,
    readonly endIndex: number,
  ) {}
  get text(): string {
    return this.source.slice(this.startIndex, this.endIndex);
  }
  get childCount(): number {
    return this.kids.length;
  }
  child(i: number): SyntaxNode | null {
    return this.kids[i] ?? null;
  }
  fieldNameForChild(i: number): string | null {
    return this.fields[i] ?? null;
  }
}

/**
 * The whole tree, walked once with a cursor (one step per node; asking a node for its i-th child
 * walks its children again, which made a 10 KiB command cost 50 ms), as plain objects.
 */
function plainTree(cursor: Cursor, text: string): SyntaxNode {
  const make = () =>
    new PlainNode(
      text,
      cursor.nodeType,
      cursor.nodeIsNamed,
      cursor.nodeIsMissing,
      cursor.startIndex,
      cursor.endIndex,
    );
  const root = make();
  const stack: PlainNode[] = [root];
  /** The cursor moved onto a child or a sibling: it becomes the newest node of its parent. */
  const enter = (): void => {
    const field = cursor.currentFieldName;
    const node = make();
    const parent = stack[stack.length - 1] as PlainNode;
    parent.kids.push(node);
    parent.fields.push(field);
    stack.push(node);
  };
  try {
    for (;;) {
      if (cursor.gotoFirstChild()) {
        enter();
        continue;
      }
      for (;;) {
        const done = stack.pop() as PlainNode;
        if (done.type === "ERROR" || done.isMissing || done.hasError) {
          const parent = stack[stack.length - 1];
          if (parent !== undefined) parent.hasError = true;
          done.hasError = true;
        }
        if (stack.length === 0) return root;
        if (cursor.gotoNextSibling()) {
          enter();
          break;
        }
        cursor.gotoParent();
      }
    }
  } finally {
    cursor.delete();
  }
}

/** The bash parser, loaded once per process (a failed load is retried by the next caller). */
export function loadShellParser(): Promise<ShellParser> {
  if (loaded !== undefined) return Promise.resolve(loaded);
  loading ??= load().then(
    (p) => (loaded = p),
    (err: unknown) => {
      loading = undefined;
      throw err;
    },
  );
  return loading;
}
