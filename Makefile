# Builds Chimera for distributed testing frameworks such as OpenBench,
# which run "make EXE=NAME" at the root and then "NAME bench". Needs Go
# (https://go.dev/dl/) on the machine; nothing else.
EXE ?= chimera

.PHONY: all
all:
	go build -o $(EXE) ./cmd/chimera
