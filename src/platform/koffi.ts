// koffi, the FFI library behind the Windows-only calls (owner-only DACLs, long path names).
// It is not a dependency of the package: Linux and macOS never need it, and installing it
// everywhere cost 4 MB and an install-script warning. On Windows it is installed beside
// effectgate (`npm install -g koffi@<version>`), which Node's module lookup finds from here.
// package.json names it as an optional peer dependency, so npm checks the version when both are
// installed. See docs/decisions/0085.
import { createRequire } from "node:module";

/** The version package.json names (peerDependencies), and the command that installs it. */
export const KOFFI_VERSION = "3.3.4";
export const KOFFI_INSTALL = `npm install -g koffi@${KOFFI_VERSION}`;

/**
 * koffi, loaded on first call. Throws, naming the install command, when it is not installed;
 * `load` stands in for Node's require in tests.
 */
export function loadKoffi(load: (id: string) => unknown = createRequire(import.meta.url)): unknown {
  try {
    return load("koffi");
  } catch (err) {
    const code = (err as NodeJS.ErrnoException | undefined)?.code;
    if (code !== "MODULE_NOT_FOUND") throw err;
    throw new Error(
      `Windows file permissions need koffi, which is not installed; install it with: ${KOFFI_INSTALL}`,
      { cause: err },
    );
  }
}
