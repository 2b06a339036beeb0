// Package winproc is chainrun's Windows process layer: command lines for
// native programs, batch files and cmd.exe built-ins (pure rules, tested on
// every OS), and on Windows process creation inside kill-on-close job
// objects, graceful stop with Ctrl+Break, and whole-tree termination.
package winproc
