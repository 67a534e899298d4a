import { loadKoffi } from "./koffi.js";

/**
 * Owner-only access for session logs on Windows, where POSIX modes mean nothing: a protected
 * DACL (no inherited entries) with one entry, full access for the current user. The folder's
 * entry is inheritable (OICI) so files created in it start owner-only too; each file also gets
 * its own explicit DACL. koffi is loaded only when this runs on win32, never on import (koffi.ts).
 */

const SID_RE = /^S-1-\d+(?:-\d+)+$/;

function checkSid(sid: string): string {
  if (!SID_RE.test(sid))
    throw new Error(`windows ACL: expected a SID like S-1-5-21-…, got ${JSON.stringify(sid)}`);
  return sid;
}

/** Folder: protected DACL, full access for `sid`, inherited by files and subfolders. */
export function dirSddl(sid: string): string {
  return `D:P(A;OICI;FA;;;${checkSid(sid)})`;
}

/** File: protected DACL, full access for `sid` only. */
export function fileSddl(sid: string): string {
  return `D:P(A;;FA;;;${checkSid(sid)})`;
}

const TOKEN_QUERY = 0x0008;
const TOKEN_USER_CLASS = 1;
const SDDL_REVISION_1 = 1;
const SE_FILE_OBJECT = 1;
const DACL_SECURITY_INFORMATION = 0x4;
const PROTECTED_DACL_SECURITY_INFORMATION = 0x80000000;

/* eslint-disable @typescript-eslint/no-explicit-any -- koffi calls are untyped by nature */
interface Win32 {
  koffi: any;
  GetCurrentProcess: any;
  CloseHandle: any;
  LocalFree: any;
  OpenProcessToken: any;
  GetTokenInformation: any;
  ConvertSidToStringSidW: any;
  ConvertStringSecurityDescriptorToSecurityDescriptorW: any;
  GetSecurityDescriptorDacl: any;
  SetNamedSecurityInfoW: any;
}

let win32: Win32 | null = null;
let userSid: string | null = null;

function bind(): Win32 {
  if (win32) return win32;
  const koffi = loadKoffi() as any;
  const k32 = koffi.load("kernel32.dll");
  const adv = koffi.load("advapi32.dll");
  win32 = {
    koffi,
    GetCurrentProcess: k32.func("void * __stdcall GetCurrentProcess()"),
    CloseHandle: k32.func("int __stdcall CloseHandle(void *h)"),
    LocalFree: k32.func("void * __stdcall LocalFree(void *p)"),
    OpenProcessToken: adv.func(
      "int __stdcall OpenProcessToken(void *process, uint32_t access, _Out_ void **token)",
    ),
    GetTokenInformation: adv.func(
      "int __stdcall GetTokenInformation(void *token, int cls, void *info, uint32_t len, _Out_ uint32_t *needed)",
    ),
    ConvertSidToStringSidW: adv.func("int __stdcall ConvertSidToStringSidW(void *sid, _Out_ void **text)"),
    ConvertStringSecurityDescriptorToSecurityDescriptorW: adv.func(
      "int __stdcall ConvertStringSecurityDescriptorToSecurityDescriptorW(const char16_t *sddl, uint32_t rev, _Out_ void **sd, _Out_ uint32_t *size)",
    ),
    GetSecurityDescriptorDacl: adv.func(
      "int __stdcall GetSecurityDescriptorDacl(void *sd, _Out_ int *present, _Out_ void **dacl, _Out_ int *defaulted)",
    ),
    SetNamedSecurityInfoW: adv.func(
      "uint32_t __stdcall SetNamedSecurityInfoW(const char16_t *name, int type, uint32_t info, void *owner, void *group, void *dacl, void *sacl)",
    ),
  };
  return win32;
}

/** The current process user's SID as text (S-1-5-21-…). */
function currentUserSid(w: Win32): string {
  if (userSid) return userSid;
  const token: unknown[] = [null];
  if (!w.OpenProcessToken(w.GetCurrentProcess(), TOKEN_QUERY, token))
    throw new Error("OpenProcessToken failed");
  try {
    const buf = Buffer.alloc(512); // TOKEN_USER: a SID pointer, attributes, then the SID itself
    const needed = [0];
    if (!w.GetTokenInformation(token[0], TOKEN_USER_CLASS, buf, buf.length, needed))
      throw new Error(`GetTokenInformation(TokenUser) failed (needed ${needed[0]} bytes)`);
    const sidPtr = w.koffi.decode(buf, "void *");
    const text: unknown[] = [null];
    if (!w.ConvertSidToStringSidW(sidPtr, text)) throw new Error("ConvertSidToStringSidW failed");
    try {
      userSid = checkSid(w.koffi.decode.string16(text[0]) as string);
    } finally {
      w.LocalFree(text[0]);
    }
    return userSid;
  } finally {
    w.CloseHandle(token[0]);
  }
}

/** Replace the DACL of `path` with an owner-only protected one. Throws with the failing step. */
export function applyOwnerOnlyAcl(path: string, kind: "dir" | "file"): void {
  const w = bind();
  const sid = currentUserSid(w);
  const sddl = kind === "dir" ? dirSddl(sid) : fileSddl(sid);
  const sd: unknown[] = [null];
  if (!w.ConvertStringSecurityDescriptorToSecurityDescriptorW(sddl, SDDL_REVISION_1, sd, [0]))
    throw new Error(`could not build security descriptor ${sddl}`);
  try {
    const present = [0];
    const dacl: unknown[] = [null];
    if (!w.GetSecurityDescriptorDacl(sd[0], present, dacl, [0]) || !present[0])
      throw new Error(`security descriptor ${sddl} has no DACL`);
    const info = (DACL_SECURITY_INFORMATION | PROTECTED_DACL_SECURITY_INFORMATION) >>> 0;
    const rc = w.SetNamedSecurityInfoW(path, SE_FILE_OBJECT, info, null, null, dacl[0], null);
    if (rc !== 0) throw new Error(`SetNamedSecurityInfoW(${path}) failed with Win32 error ${rc}`);
  } finally {
    w.LocalFree(sd[0]);
  }
}
