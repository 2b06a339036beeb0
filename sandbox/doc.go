// Package sandbox is the boundary the operating system holds a sandboxed
// chain's processes to: the trees they may write, the paths they may not
// write or read inside what they may, and whether they may use the
// network. It is Claude Code's "sandbox" settings block, read and merged
// as Claude Code merges it (Settings, Config), turned into one Boundary per
// run (New), and the OS-independent halves of its enforcement: the
// Landlock grants (Boundary.Grants), the macOS Seatbelt profile
// (Boundary.Seatbelt) and the check chainrun applies to the files it opens
// itself (Boundary.Check). It imports nothing of chainrun's and no system
// package, so the policy may read it and Linux tests cover every OS's
// half; the system calls are posix's (Linux) and the engine's (macOS).
package sandbox
