package i18n

// Msg is a message of the catalogue.
type Msg uint16

// The messages. Each one's arguments are named in defs, in the order they are given.
const (
	NoMsg Msg = iota

	// The title bar.
	TitleName
	TitleMaker
	ModeTraining
	ModeTesting
	ModeStopped
	StatusEpochCard
	StatusTestCard
	StatusTotals
	DurSeconds
	DurMinutes
	DurHoursMinutes
	DurDaysHours

	// The captions.
	CapTrainingBegins
	CapWelcome
	CapStoppedWrong
	CapStoppedWrongMoved
	CapLearned
	CapStopped
	CapTrainRight
	CapTrainRightForced
	CapTrainWrong
	CapTestDone
	CapTestCardRight
	CapTestCardWrong
	CapShown
	CapTaughtWrong
	CapTaughtMoved
	CapTaughtNothing
	MotorsSentence
	MotorsClause
	UnknownClass

	// The panels' headings and labels.
	PanelCard
	PanelAnswer
	PanelRetina
	PanelAUnits
	PanelRUnits
	PanelLearned
	PanelWeights
	PanelControl
	PanelExperiment
	PanelRule
	PanelSpeed
	PanelTeach
	PanelCurve
	ButtonTrain
	ButtonTest
	ButtonStop
	ButtonReset
	ButtonClear
	ButtonClose
	RuleAlpha
	RuleForced
	SpeedMax
	AnswerWanted
	AnswerNone
	AnswerRight
	AnswerWrong
	HeatOn
	HeatOff
	RackName
	RackUnused
	ZoomAbout
	ZoomLearned
	ZoomLearnedSub
	ZoomMotors
	ZoomBias
	AUnitName
	AUnitPlugs
	AUnitResting
	AUnitFires
	LampsFiring
	RetinaCount
	CurveEpoch
	CurveNone

	// The descriptions of the parts.
	DescTitle
	DescCaption
	DescCard
	DescAnswer
	DescRetina
	DescCell
	DescCellOn
	DescLamps
	DescLamp
	DescLampFiring
	DescPlugBoard
	DescRUnits
	DescRUnitUnused
	DescRUnitOn
	DescRUnitOff
	DescHeat
	DescHeatAll
	DescRack
	DescRackZoomed
	DescBiasName
	DescPotName
	DescPotReading
	DescPotReadingStops
	DescZoomClose
	DescTrain
	DescTest
	DescStop
	DescReset
	DescForced
	DescAlpha
	DescSpeed
	DescClassFirst
	DescClass
	DescClear
	DescCurve
	DescLanguage
	DescLargeText
	DescHelp

	// The experiments.
	ExpLettersTitle
	ExpLettersAbout
	ExpLettersDraw
	ExpLettersYear
	ExpShapesTitle
	ExpShapesAbout
	ExpShapesDraw
	ExpShapesYear
	ExpLeftRightTitle
	ExpLeftRightAbout
	ExpLeftRightDraw
	ExpLeftRightYear
	ExpEFTitle
	ExpEFAbout
	ExpEFDraw
	ExpEFYear
	ExpOtherDraw
	ClassLetter
	ClassSquare
	ClassCircle
	ClassDiamond
	ClassTriangle
	ClassLeft
	ClassRight
	ClassASquare
	ClassACircle
	ClassADiamond
	ClassATriangle
	ClassOnTheLeft
	ClassOnTheRight

	// The console's hints.
	NoteReset
	NoteResetArmed
	NoteDrawFirst
	NoteLanguage
	NoteLargeText
	NoteNormalText

	// The camera, as the console tells the visitor.
	CamStarting
	CamMissing
	CamBusy
	CamUnplugged
	CamDenied
	CamFailed
	CamNoPicture
	CamShown
	CamLive
	CamPanelTitle
	CamPanelNoPicture
	CamPanelLive
	CamPanelHint
	CamPanelHintShort    // the hint where the long one does not fit
	CamPanelHintShortest // the hint where neither fits
	CamPanelShowPuts     // under the picture: what SHOW IT does
	CamButtonShow
	CamButtonLive
	CamButtonStopLive

	// The attract mode's narration.
	AttractHistory
	AttractRetina
	AttractAUnits
	AttractRUnits
	AttractMotors
	AttractMistakes
	AttractMaps
	AttractRecord
	AttractYourTurn

	// The help.
	HelpTitle
	HelpDraw
	HelpTeach
	HelpButtons
	HelpPoint
	HelpAccess
	HelpKeysTitle
	HelpKeySpace
	HelpKeyTest
	HelpKeyReset
	HelpKeyClear
	HelpKeyArrows
	HelpKeySpeed
	HelpKeyTab
	HelpKeyLanguage
	HelpKeyLarge
	HelpKeyHelp
	HelpKeyEscape
	HelpClose

	// The hardware rig's panel (shown only with a rig attached).
	RigHeadMirror
	RigHeadLoop
	RigStateConnecting
	RigStateNotConnected
	RigStateSyncing
	RigStateTurning
	RigStateResting
	RigStateHeld
	RigStateHalted
	RigStateFault
	RigStateNotFollowing
	RigStateOther
	RigSayConnecting
	RigSayNotConnected
	RigSaySyncing
	RigSayTurning
	RigSayResting
	RigSayLoop
	RigSayHeld
	RigSayHalted
	RigSayFault
	RigSayNotFollowing
	RigSayOther
	RigSayEmulated
	RigLegend
	RigBias
	RigFooterMirror
	RigFooterLoop

	// The plug-board's line for an A-unit with no inhibitory plug (the loop rig's strips).
	AUnitPlugsExc

	// A machine of another size than the Mark I's (a loop rig's): the headings and texts that
	// name its A-units, R-units and pots by number.
	PanelAUnitsN
	PanelRUnitsN
	PanelWeightsN
	ZoomAboutN
	CapShownN

	numMsgs
)

// NumMsgs is the number of messages (Msg 1 to NumMsgs-1).
const NumMsgs = int(numMsgs)

// def is a message's definition: the names of its arguments, in the order Append takes
// them, and what a translator needs to know.
type def struct {
	args string
	note string
}

// defs are the messages' definitions (a message without one takes no argument).
var defs = [numMsgs]def{
	StatusEpochCard: {"epoch card cards", ""},
	StatusTestCard:  {"card cards", ""},
	StatusTotals:    {"shown time", "time is a duration message (DurMinutes...)"},
	DurSeconds:      {"s", ""},
	DurMinutes:      {"min", ""},
	DurHoursMinutes: {"h min", "min has two digits"},
	DurDaysHours:    {"days h", ""},

	CapWelcome:           {"title draw", "title: an experiment's title (ExpLettersTitle); draw: what to draw (ExpLettersDraw), as the object of draw"},
	CapStoppedWrong:      {"epochs class answer want", "class: a class named in a phrase (ClassLetter: the letter E), as a subject; answer, want: labels"},
	CapStoppedWrongMoved: {"epochs class answer want motors", "motors: MotorsSentence, a whole sentence without its full stop"},
	CapLearned:           {"cards epochs draw", ""},
	CapStopped:           {"epochs mistakes cards", ""},
	CapTrainRight:        {"card cards class answer", ""},
	CapTrainRightForced:  {"card cards class answer motors", "motors: MotorsClause"},
	CapTrainWrong:        {"card cards class answer want motors", "motors: MotorsSentence"},
	CapTestDone:          {"right done percent", "percent has one decimal"},
	CapTestCardRight:     {"card cards class answer right done", ""},
	CapTestCardWrong:     {"card cards class answer right done", ""},
	CapShown:             {"cells active answer", ""},
	CapTaughtWrong:       {"want answer motors", "motors: MotorsClause"},
	CapTaughtMoved:       {"want motors", "motors: MotorsClause"},
	CapTaughtNothing:     {"want", ""},
	MotorsSentence:       {"racks active toward", "a sentence without its full stop: racks is at least 1; toward: a label"},
	MotorsClause:         {"racks active toward", "the same as a clause within a sentence"},

	RackName:    {"r", "r: R0 to R7"},
	ZoomLearned: {"r", ""},
	ZoomMotors:  {"n", ""},
	ZoomBias:    {"bias", "bias has one decimal"},
	AUnitName:   {"a", ""},
	AUnitPlugs:  {"exc excAll inh inhAll theta", ""},
	LampsFiring: {"n", ""},
	RetinaCount: {"n", ""},
	CurveEpoch:  {"n", ""},

	DescCell:            {"s row col level units", "s: the S-unit, from 0; level has two decimals; units: the A-units it feeds"},
	DescCellOn:          {"s row col level units", ""},
	DescLamp:            {"a exc inh theta", ""},
	DescLampFiring:      {"a exc inh theta", ""},
	DescRUnitUnused:     {"r", ""},
	DescRUnitOn:         {"r sum", "sum has one decimal"},
	DescRUnitOff:        {"r sum", ""},
	DescHeat:            {"r", "r: R0 to R7"},
	DescBiasName:        {"r", ""},
	DescPotName:         {"a r", ""},
	DescPotReading:      {"pot value", "pot: DescPotName or DescBiasName; value: signed, one decimal"},
	DescPotReadingStops: {"pot value stop", "stop: the end stops' position"},
	DescClass:           {"class", ""},
	DescLanguage:        {"language", "language: the language's name in itself"},

	ClassLetter: {"label", "the letter, as a subject"},

	AttractRecord: {"record title", "record: an experiment's record (ExpLettersYear)"},

	RigHeadMirror:      {"n", "n: the rig's knobs"},
	RigHeadLoop:        {"n", "n: the rig's potentiometers, the weights of its machine"},
	RigSayConnecting:   {"addr", "addr: the bridge's HOST:PORT"},
	RigSayNotConnected: {"addr", ""},
	RigSayFault:        {"chip", "chip: the chip's name in the rig's file (pots1)"},
	RigSayOther:        {"addr", ""},
	RigFooterMirror:    {"gen frames bytes err", "gen: how often the rig's motion stopped; frames: sent to the rig; bytes: written on its bus; err: how far a knob read back is from its target, one decimal"},
	RigFooterLoop:      {"gen corrections bytes err", "corrections: the machine's corrections sent to the rig"},
	AUnitPlugsExc:      {"exc excAll theta", "AUnitPlugs without the blue plugs"},
	PanelAUnitsN:       {"n", "PanelAUnits of n A-units"},
	PanelRUnitsN:       {"n", "PanelRUnits of n R-units"},
	PanelWeightsN:      {"racks pots", "PanelWeights: racks racks of pots potentiometers (the A-units)"},
	ZoomAboutN:         {"pots", "ZoomAbout of pots potentiometers"},
	CapShownN:          {"cells active units answer", "CapShown of a machine of units A-units"},
}
