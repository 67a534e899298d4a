/**
 * 2026-07-28 only: the `x-mcp-header` declarations of the tools the server listed, so that each
 * `tools/call` carries its `Mcp-Param-*` headers, and the tools whose declarations break the
 * rules, which the spec says a client must drop from `tools/list`.
 */
import { scanHeaderDeclarations, type HeaderDeclaration } from "../../core/remote/param-headers.js";

const isObj = (v: unknown): v is Record<string, unknown> =>
  typeof v === "object" && v !== null && !Array.isArray(v);

export interface DroppedTool {
  name: string;
  reason: string;
}

export class ToolHeaderCache {
  private readonly byName = new Map<string, HeaderDeclaration[]>();

  /**
   * Reads one `tools/list` result. Returns the result to pass on (a copy without the dropped
   * tools, or the same object when none is dropped) and what was dropped, with why.
   */
  list(result: Record<string, unknown>): { result: Record<string, unknown>; dropped: DroppedTool[] } {
    const tools = result["tools"];
    if (!Array.isArray(tools)) return { result, dropped: [] };
    const kept: unknown[] = [];
    const dropped: DroppedTool[] = [];
    for (const tool of tools) {
      const name = isObj(tool) && typeof tool["name"] === "string" ? tool["name"] : undefined;
      const scan = scanHeaderDeclarations(isObj(tool) ? tool["inputSchema"] : undefined);
      if (!scan.ok) {
        dropped.push({ name: name ?? "(unnamed)", reason: scan.reason });
        if (name !== undefined) this.byName.delete(name);
        continue;
      }
      if (name !== undefined) this.byName.set(name, scan.declarations);
      kept.push(tool);
    }
    return dropped.length === 0 ? { result, dropped } : { result: { ...result, tools: kept }, dropped };
  }

  /** The declarations of a listed tool; undefined for one not listed (yet). */
  declarationsFor(name: string): readonly HeaderDeclaration[] | undefined {
    return this.byName.get(name);
  }
}
