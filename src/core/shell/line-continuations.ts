import type { SyntaxNode } from "./syntax.js";

// tree-sitter-bash reads a backslash before a line break, outside any token, as a space. Bash
// deletes it before it splits words, so `rm -rf ~/.ss\<newline>h` removes `~/.ssh`, and
// `echo x \<CR><LF>rm -rf ~/.ssh` runs `rm` (to bash a backslash before a CR only quotes the CR).
// The text is rewritten so that the grammar reads the words bash reads, and parsed again.

const CONTINUATION = /\\(\r?)\n/g;

/** Where tokens are: the start and end of every leaf of the tree, in order (a node's children
 * are in the order of the text, and do not overlap). */
function leaves(root: SyntaxNode): Array<[number, number]> {
  const out: Array<[number, number]> = [];
  const todo: SyntaxNode[] = [root];
  for (let n = todo.pop(); n !== undefined; n = todo.pop()) {
    if (n.childCount === 0) {
      out.push([n.startIndex, n.endIndex]);
      continue;
    }
    for (let i = n.childCount - 1; i >= 0; i--) {
      const c = n.child(i);
      if (c !== null) todo.push(c);
    }
  }
  return out;
}

/**
 * The command text as bash's reader sees it, when it differs from `text` (the text `root` was
 * parsed from): each line continuation between tokens deleted, and a backslash before a CR and a
 * line break written as a quoted CR and the line break. Continuations inside a token (a word, a
 * quoted string, a comment, a here-document) are the readers' concern and are left as they are.
 */
export function asBashReadsIt(root: SyntaxNode, text: string): string | undefined {
  if (!text.includes("\\\n") && !text.includes("\\\r\n")) return undefined;
  let out = "";
  let at = 0;
  let changed = false;
  const gap = (upTo: number) => {
    if (upTo <= at) return;
    const piece = text.slice(at, upTo);
    const rewritten = piece.replace(CONTINUATION, (_, cr: string) => (cr === "" ? "" : '"\r"\n'));
    if (rewritten !== piece) changed = true;
    out += rewritten;
    at = upTo;
  };
  for (const [start, end] of leaves(root)) {
    gap(start);
    if (end > at) {
      out += text.slice(at, end);
      at = end;
    }
  }
  gap(text.length);
  return changed ? out : undefined;
}
