package winproc

// StatusControlCExit is STATUS_CONTROL_C_EXIT, the exit code of a console
// program ended by Ctrl+C or Ctrl+Break.
const StatusControlCExit = 0xC000013A

// BashStatus maps a Windows exit code (unsigned 32 bits) to the 0-255
// status a chain reports as bash's $?. Codes up to 255 are kept;
// STATUS_CONTROL_C_EXIT becomes 130, the status of a program interrupted
// by SIGINT; any other larger code (crashes such as 0xC0000005, or
// programs exiting with 256 and up) becomes 255, never a low byte that
// could read as success or as an ordinary error. The full code stays
// available as the segment's raw exit code.
func BashStatus(raw uint32) int {
	switch {
	case raw <= 255:
		return int(raw)
	case raw == StatusControlCExit:
		return 130
	}
	return 255
}
