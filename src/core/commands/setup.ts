import type { CommandsPolicy, ShellKit } from "../policy/api.js";
import { type Catalogue, catalogueOf } from "../policy/catalogue.js";
import type { ScriptReading } from "../shell/script-model.js";
import { readScript } from "../shell/script.js";
import { asBashReadsIt } from "../shell/line-continuations.js";
import type { ShellParser, SyntaxTree } from "../shell/syntax.js";
import type { ConfiguredRemotes, Platform } from "../types.js";
import type { ShellState } from "./api.js";

/** What extracting a command's effects needs: the grammar, the catalogue, the session's shells. */
export interface CommandSetup {
  parse: (text: string) => ScriptReading;
  catalogue: Catalogue;
  variables: ShellKit["variables"];
  platform: Platform;
  /** Shells the session started that later input is typed into, by process id (`terminal` for one with no id). */
  shells: ReadonlyMap<string, ShellState>;
  /** Git remotes and ssh aliases of this machine (JudgeEnvironment.remotes). */
  remotes?: ConfiguredRemotes;
}

const parsers = new WeakMap<ShellParser, (text: string) => ScriptReading>();
const catalogues = new WeakMap<ShellKit, WeakMap<CommandsPolicy["programs"], Catalogue>>();

/** The tree of `text` as bash reads it (see line-continuations.ts): parsed again if it had to be rewritten. */
function parseAsBash(parser: ShellParser, text: string): SyntaxTree | undefined {
  const tree = parser.parse(text);
  if (tree === undefined) return undefined;
  const rewritten = asBashReadsIt(tree.rootNode, text);
  if (rewritten === undefined) return tree;
  tree.release();
  return parser.parse(rewritten);
}

/** Parse and read a command string with `parser`, freeing the parser's tree at once. */
export function scriptReader(parser: ShellParser): (text: string) => ScriptReading {
  let read = parsers.get(parser);
  if (read === undefined) {
    read = (text: string): ScriptReading => {
      const tree = parseAsBash(parser, text);
      if (tree === undefined) return { ok: false, why: "the bash grammar could not read the command" };
      try {
        return readScript(tree.rootNode);
      } finally {
        tree.release();
      }
    };
    parsers.set(parser, read);
  }
  return read;
}

/** The shipped catalogue with the policy's own entries on top, built once per pair. */
export function catalogueFor(kit: ShellKit, programs: CommandsPolicy["programs"]): Catalogue {
  let byPolicy = catalogues.get(kit);
  if (byPolicy === undefined) catalogues.set(kit, (byPolicy = new WeakMap()));
  let c = byPolicy.get(programs);
  if (c === undefined) byPolicy.set(programs, (c = catalogueOf(kit.programs, programs)));
  return c;
}
