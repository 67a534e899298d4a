/**
 * Opens the authorisation page. Never through a shell: the URL comes from an authorization
 * server's metadata, and a shell would read `&`, `;` or `$(…)` in it as commands (the class of
 * mcp-remote's CVE-2025-6514). The program gets the URL as one argument: `$BROWSER` when set
 * (one program, as the convention has it), else the platform's opener. When nothing can be
 * started, the URL printed on stderr is the way.
 */
import { spawn } from "node:child_process";

function opener(platform: NodeJS.Platform, env: NodeJS.ProcessEnv): { file: string; args: string[] } {
  const browser = env["BROWSER"]?.trim();
  if (browser) return { file: browser, args: [] };
  if (platform === "darwin") return { file: "open", args: [] };
  if (platform === "win32") return { file: "rundll32.exe", args: ["url.dll,FileProtocolHandler"] };
  return { file: "xdg-open", args: [] };
}

/** Starts the opener; `onFail` hears why when it cannot run. */
export function openBrowser(
  url: string,
  onFail: (why: string) => void,
  platform: NodeJS.Platform = process.platform,
  env: NodeJS.ProcessEnv = process.env,
): void {
  const { file, args } = opener(platform, env);
  try {
    const child = spawn(file, [...args, url], {
      env,
      shell: false,
      stdio: "ignore",
      detached: true,
      windowsHide: true,
    });
    child.once("error", (err: NodeJS.ErrnoException) => onFail(`${file}: ${err.code ?? err.message}`));
    child.unref();
  } catch (err) {
    onFail(`${file}: ${(err as Error).message}`);
  }
}
