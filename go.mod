module github.com/chainrun/chainrun

go 1.26.0

require (
	github.com/rogpeppe/go-internal v1.16.0
	golang.org/x/sys v0.49.0
	golang.org/x/text v0.43.0
	gopkg.in/natefinch/lumberjack.v2 v2.2.1
	mvdan.cc/sh/v3 v3.14.1
)

require golang.org/x/tools v0.51.0 // indirect
