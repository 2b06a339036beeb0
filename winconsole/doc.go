// Package winconsole turns the bytes Windows programs write into text:
// BOM and UTF-16 sniffing, UTF-8 per line, otherwise the legacy code page
// snapshotted before the program started. It also keeps the shared
// console's code pages as the user set them. How programs are started
// (including PowerShell's UTF-8 prelude) is package winproc's.
//
// Pipes carry bytes, and on Windows each writer picks their encoding:
// Go, Rust, Node and Git write UTF-8; cmd.exe /u, wmic and PowerShell 5.1
// files write UTF-16LE; cmd built-ins and console programs write in the
// console's output code page (437, 850, 936, …); Python and C programs
// often write in the ANSI code page. A Decoder sorts this out per stream
// and per line and records what it used, e.g. "utf-8", "utf-16le",
// "cp437" or "mixed:utf-8+cp437":
//
//	snap := winconsole.Snapshot()            // before the segment starts
//	d := winconsole.Decoder{Fallback: winconsole.FallbackFor(snap)}
//	text := d.Append(nil, chunk)             // as output arrives
//	text = d.Flush(text)                     // at the end
//	enc := d.Encoding()
//
// Decode does the same for a whole buffer. The decoders are pure Go and
// behave the same on every OS; legacy code pages come from
// MultiByteToWideChar on Windows and from golang.org/x/text elsewhere.
//
// The console is shared: EnableUTF8, chcp and PowerShell's
// [Console]::OutputEncoding (which winproc.PowerShellUTF8Prelude sets)
// change it for every later program, so EnableUTF8 returns a restore
// function and Preserve puts back whatever a child changed.
package winconsole
