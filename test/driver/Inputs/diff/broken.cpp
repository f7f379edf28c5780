// Does not compile: analyzing it would end the run with exit code 3.
void broken( {
