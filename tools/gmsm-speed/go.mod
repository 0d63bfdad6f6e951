module fastsm2/tools/gmsm-speed

go 1.22

require github.com/emmansun/gmsm v0.15.5

require (
	golang.org/x/crypto v0.4.0 // indirect
	golang.org/x/sys v0.3.0 // indirect
)
