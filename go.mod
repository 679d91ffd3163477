module github.com/mark1-perceptron/mark1

go 1.25
