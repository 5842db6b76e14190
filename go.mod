module github.com/weftgo/weft

go 1.24.0
