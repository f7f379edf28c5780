// Input of load-into-cli.test: the check of TinyPlugin.cpp, with Name set
// to 'worse', reports only the first.
void worse();
void bad();
