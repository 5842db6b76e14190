module github.com/weftgo/weft/examples/walk

go 1.26.0

replace github.com/weftgo/weft => ../..

require (
	github.com/stretchr/testify v1.12.1
	github.com/weftgo/weft v0.0.0
	golang.org/x/sync v0.23.0
)

require (
	github.com/klauspost/cpuid/v2 v2.4.2 // indirect
	go.yaml.in/yaml/v3 v3.0.5 // indirect
	golang.org/x/exp v0.0.0-20250620022241-b7579e27df2b // indirect
	golang.org/x/sys v0.41.0 // indirect
)
