module github.com/chimera-chess/chimera

go 1.26.8

require github.com/stretchr/testify v1.12.1

require (
	github.com/notnil/chess v1.10.0 // indirect
	go.yaml.in/yaml/v3 v3.0.5 // indirect
)
