// Package winconsole turns the bytes Windows programs write into text:
// BOM and UTF-16 sniffing, UTF-8 per line, otherwise the legacy code page
// snapshotted before the program started; and the PowerShell UTF-8 prelude.
package winconsole
