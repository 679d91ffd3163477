module github.com/mark1-perceptron/mark1

go 1.26.0

require golang.org/x/image v0.47.0 // indirect
