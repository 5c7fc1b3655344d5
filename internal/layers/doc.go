/*
Package layers holds the test that keeps the module's imports going down
the layer table of docs/architecture.md (TestLayers). It has no code of its
own: the table and the known exceptions are in layers_test.go.
*/
package layers
