module github.com/weftgo/weft/bench

go 1.24.0

require (
	github.com/alitto/pond/v2 v2.7.1
	github.com/exascience/pargo v1.1.0
	github.com/jfcg/sorty/v2 v2.1.1
	github.com/panjf2000/ants/v2 v2.12.1
	github.com/samber/lo v1.53.0
	github.com/sourcegraph/conc v0.3.0
	github.com/stretchr/testify v1.12.1
	github.com/twotwotwo/sorts v0.0.0-20160814051341-bf5c1f2b8553
	github.com/weftgo/weft v0.0.0
	golang.org/x/sync v0.19.0
)

require (
	github.com/jfcg/sixb v1.4.1 // indirect
	github.com/klauspost/cpuid/v2 v2.4.2 // indirect
	go.uber.org/atomic v1.7.0 // indirect
	go.uber.org/multierr v1.9.0 // indirect
	go.yaml.in/yaml/v3 v3.0.5 // indirect
	golang.org/x/exp v0.0.0-20250620022241-b7579e27df2b // indirect
	golang.org/x/sys v0.41.0 // indirect
)

replace github.com/weftgo/weft => ../
