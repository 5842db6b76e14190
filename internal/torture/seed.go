package torture

// Mix derives a seed from a seed and a number with splitmix64's finalizer:
// the seed of round k of a master seed, or of case k of a round. Nearby
// inputs give unrelated outputs, so every case draws from a stream of its own.
func Mix(seed, k uint64) uint64 {
	z := seed + 0x9E3779B97F4A7C15*(k+1)
	z = (z ^ z>>30) * 0xBF58476D1CE4E5B9
	z = (z ^ z>>27) * 0x94D049BB133111EB
	return z ^ z>>31
}
