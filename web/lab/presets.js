// The data a class starts from: the lecture notes' worked examples and the worksheets' data
// (docs/lab), each as the points and settings a link would hold. name is a key of i18n.json.

export const presets = [
  // mark1 lab trace --point 1,2,+1 --point 2,0,-1 --point -1,1,+1 (worksheet 9)
  { id: "three", name: "presetThree", points: ["1,2,+1", "2,0,-1", "-1,1,+1"] },
  // mark1 lab trace --bias first --init=-5,0,1 --point 5,7,+1 --point 2,6,-1 (the notes' one step)
  { id: "onestep", name: "presetOneStep", settings: { bias: "first", init: "-5,0,1" }, points: ["5,7,+1", "2,6,-1"] },
  { id: "or", name: "presetOr", points: ["0,0,-1", "0,1,+1", "1,0,+1", "1,1,+1"] },
  // mark1 lab trace --point 0,0,-1 --point 0,1,-1 --point 1,0,-1 --point 1,1,+1 (worksheet 12)
  { id: "and", name: "presetAnd", points: ["0,0,-1", "0,1,-1", "1,0,-1", "1,1,+1"] },
  // mark1 lab trace --point 0,0,-1 --point 0,1,+1 --point 1,0,+1 --point 1,1,-1 (worksheet 9)
  { id: "xor", name: "presetXor", points: ["0,0,-1", "0,1,+1", "1,0,+1", "1,1,-1"] },
  // mark1 lab geometry --point 3,2,+1 --point 1,0,-1 --point 0,1,-1 --point 2,3,+1 --point 2,0,-1
  { id: "geometry", name: "presetGeometry", points: ["3,2,+1", "1,0,-1", "0,1,-1", "2,3,+1", "2,0,-1"] },
  // the notes' four-point least-squares example (lab/learn's ExampleLeastSquares)
  { id: "lsq4", name: "presetLsq4", settings: { method: "lsq" }, points: ["1,5,+1", "2,4,+1", "6,5,-1", "7,4,-1"] },
  // mark1 lab fisher-lsq --point 0,0,+1 --point 1,0,+1 --point 0,2,+1 --point 3,1,-1 --point 4,3,-1 (worksheet 14)
  { id: "fisher", name: "presetFisher", settings: { method: "fisher" }, points: ["0,0,+1", "1,0,+1", "0,2,+1", "3,1,-1", "4,3,-1"] },
  // Two classes that overlap: no line separates them; the pocket keeps its best.
  { id: "cloud", name: "presetCloud", settings: { method: "pocket", epochs: "30" }, points: [
    "1,1,+1", "2,0.5,+1", "1.5,2,+1", "0.5,1.5,+1", "2.5,1.5,+1", "-0.5,0.5,+1", "0,2,+1", "1,-0.5,+1",
    "-1,-1,-1", "-2,-0.5,-1", "-1.5,-2,-1", "-0.5,-1.5,-1", "0.5,-0.5,-1", "-2,1,-1", "0,0,-1", "1.5,0,-1"] },
  // Three classes in a row: least squares one-vs-rest never answers the middle one (masking).
  { id: "masking", name: "presetMasking", settings: { classes: "3", method: "lsq", multiclass: "ovr" }, points: [
    "-4,-3,0", "-3,-4,0", "-3,-2.5,0", "-2.5,-3.5,0", "-3.5,-3,0",
    "0,0.5,1", "0.5,0,1", "-0.5,-0.5,1", "0,-0.5,1", "0.5,0.5,1",
    "3,4,2", "4,3,2", "3,2.5,2", "2.5,3.5,2", "3.5,3,2"] },
  // Class -1 with outliers far behind it, on its own side: least squares tilts toward them.
  { id: "outliers", name: "presetOutliers", settings: { method: "lsq" }, points: [
    "-1,1,+1", "-1.5,1.5,+1", "-0.5,0.5,+1", "-1,2,+1", "-2,1,+1", "0,1.5,+1",
    "1,-1,-1", "1.5,-1.5,-1", "0.5,-0.5,-1", "1,-2,-1", "2,-1,-1", "0,-1.5,-1",
    "6,-6,-1", "6.5,-5.5,-1", "5.5,-6.5,-1", "7,-6,-1", "6,-7,-1"] },
];
