// Package knob describes the settable parameters of the machine's parts: what each models, its
// unit, where its default comes from and when it acts. The retina and potentiometer packages
// describe their parameters with it; the machine turns the descriptions into commented
// configuration files and the --flaws switches of the command line.
package knob

// Where a parameter's default comes from.
const (
	Historical = "historical" // from the surviving record of the Mark I
	Assumed    = "assumed"    // the record is silent: a plausible choice, documented
	Setting    = "setting"    // an experiment's choice (placement, polarity), not a property of the machine
	Modelling  = "modelling"  // a choice of the simulation (a batch interval), not a physical figure
)

// Doc describes one parameter.
type Doc struct {
	// Key is the parameter's JSON name within its section, as state and configuration files
	// spell it ("blur_cells").
	Key string
	// Models says in a phrase what the parameter models.
	Models string
	// Unit is the parameter's unit ("cells", "s", "increments"), or "" for a pure number or a
	// name.
	Unit string
	// Source is where the default comes from: Historical, Assumed, Setting or Modelling.
	Source string
	// Flaw names the analog flaw the parameter belongs to ("blur", "backlash"), or "" when it
	// is not a flaw. Turning a flaw on sets every parameter of that flaw to its default.
	Flaw string
	// Note says when the parameter acts: empty when it acts alone, otherwise what it acts only
	// with ("acts only with spread, dark_noise or the lags").
	Note string
}
