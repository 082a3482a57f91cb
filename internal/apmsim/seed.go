package apmsim

import "fmt"

// Seed names accepted in Options.Seed; "" means SeedEmpty.
const (
	SeedEmpty = "empty" // nothing at all
	SeedDemo  = "demo"  // a little of everything, see README.md
)

func checkSeed(seed string) error {
	switch seed {
	case "", SeedEmpty, SeedDemo:
		return nil
	}
	return fmt.Errorf("apmsim: unknown seed %q (want %q or %q)", seed, SeedEmpty, SeedDemo)
}

// applySeed fills a fresh world: every area that is a seeder adds its
// part, in the order of the areas list.
func (s *Sim) applySeed(w *world, seed string) {
	if seed == "" || seed == SeedEmpty {
		return
	}
	for _, a := range s.areaList {
		if sd, ok := a.(seeder); ok {
			sd.seed(w, seed)
		}
	}
}
