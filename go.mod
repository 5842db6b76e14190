module github.com/weftgo/weft

go 1.24.0

require (
	github.com/klauspost/cpuid/v2 v2.4.2
	github.com/stretchr/testify v1.12.1
	golang.org/x/exp v0.0.0-20250620022241-b7579e27df2b
)

require (
	go.yaml.in/yaml/v3 v3.0.5 // indirect
	golang.org/x/sys v0.41.0 // indirect
)
