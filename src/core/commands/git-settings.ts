/**
 * git settings whose value names a program git runs (or a file or folder of them): setting one
 * is setting code to run on a later, ordinary git command. From git-config(1); `alias.*` counts
 * because an alias may start with `!` (a shell command) or carry `-c` settings of its own.
 */
const CODE_KEYS: readonly RegExp[] = [
  /^core\.(?:hookspath|sshcommand|fsmonitor|pager|editor|askpass|gitproxy|attributesfile|worktree|excludesfile)$/,
  /^sequence\.editor$/,
  /^pager\..+$/,
  /^alias\..+$/,
  /^credential(?:\..+)?\.helper$/,
  /^diff\.(?:external|.+\.(?:command|textconv))$/,
  /^merge\..+\.driver$/,
  /^mergetool\..+\.cmd$/,
  /^difftool\..+\.cmd$/,
  /^filter\..+\.(?:clean|smudge|process)$/,
  /^gpg\.(?:program|.+\.program)$/,
  /^include\.path$/,
  /^includeif\..+\.path$/,
  /^init\.templatedir$/,
  /^remote\..+\.(?:uploadpack|receivepack|vcs)$/,
  /^protocol\.(?:ext\.)?allow$/,
  /^uploadpack\.packobjectshook$/,
  /^(?:web|instaweb)\.browser$/,
  /^browser\..+\.(?:cmd|path)$/,
  /^man\..+\.(?:cmd|path)$/,
  /^sendemail\.(?:.+\.)?(?:sendmailcmd|tocmd|cccmd|smtpserver)$/,
  /^ssh\.variant$/,
];

/** Whether setting `key` (any case, as git folds section and name) sets code git runs later. */
export function codeSettingKey(key: string): boolean {
  const k = key.toLowerCase();
  return CODE_KEYS.some((re) => re.test(k));
}

/** Of the code keys, those whose value is itself a command line (run through the shell). */
export function commandSettingKey(key: string): boolean {
  return /^(?:core\.(?:sshcommand|pager|editor|askpass|fsmonitor)|sequence\.editor|pager\..+|diff\.external|.+\.(?:command|textconv|driver|cmd|clean|smudge|process|program))$/.test(
    key.toLowerCase(),
  );
}
