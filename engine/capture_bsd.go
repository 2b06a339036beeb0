//go:build unix && !linux

package engine

const fionread = 0x4004667f // FIONREAD: _IOR('f', 127, int)
