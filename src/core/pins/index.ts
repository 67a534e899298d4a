// The pinning contract others import: pins, comparison, per-session state, the lock model.
export { pinTool, type ToolPin } from "./pin.js";
export {
  compareTools,
  compareToolsDetailed,
  diffTool,
  type ToolChange,
  type DetailedToolChange,
} from "./compare.js";
export { PinState, type ListPage } from "./state.js";
export { identityFor } from "./identity.js";
export { type LockEntry, type LockFile } from "./lock.js";
export { escapeForTerminal } from "./escape.js";
export type { Finding, Severity } from "./severity.js";
