import type { Arg, Below, Carries, Stdin } from "./api.js";

// What the walk of a command passes between its parts: a variable's value, what a statement
// fetched or lists, and the small words every part of the walk uses.

/** A variable's value: text, unknown until run time, or found files (`for f in $(find …)`). */
export type VarValue = string | undefined | Below;

export interface Flow {
  /** Something here fetched from the network (its output may be what was fetched). */
  fetched: boolean;
  /** The command that fetched, for messages. */
  fetchedBy?: string;
  /** The words of its commands: what it may print (for a downstream xargs whose items are unknown). */
  words?: Arg[];
  /** It lists paths below these folders (find, ls, git ls-files), for a downstream xargs. */
  lists?: string[];
  /** The names those paths have, when known (find -name). */
  listNames?: string[];
}

/** No standard input. */
export const NONE: Stdin = { kind: "none" };
/** A word the command did not spell but that stands in for one (a default, a sample). */
export const literalArg = (s: string): Arg => ({ value: { exact: s, text: s, substitutions: [] } });
/** A command as messages show it: at most 200 characters. */
export const cut = (s: string): string => (s.length > 200 ? `${s.slice(0, 197)}...` : s);

/** Variable names that hold credentials by convention: printing or sending one gives a secret away. */
const SECRET_WORD = /KEY|TOKEN|SECRET|PASS|CRED|AUTH|SESSION|COOKIE/i;
/** Names with such a word that a desktop session sets to no secret: a socket, a bus, a session id. */
const NOT_SECRET =
  /^(?:SSH_AUTH_SOCK|DBUS_SESSION_BUS_ADDRESS|SESSION_MANAGER|XDG_SESSION_\w+|DESKTOP_SESSION|GPG_AGENT_INFO|KEYTIMEOUT)$/;
/** Whether a variable's name says it holds a credential. */
export const secretName = (name: string): boolean => SECRET_WORD.test(name) && !NOT_SECRET.test(name);

/** What a standard input already carries: a pipe's earlier stages, a file, a here-string's substitutions. */
export const carriesOf = (s: Stdin): Partial<Carries> => (s.kind === "none" ? {} : (s.carries ?? {}));
