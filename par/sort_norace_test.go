//go:build !race

package par_test

const raceBuild = false
