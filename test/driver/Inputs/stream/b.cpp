// block.h is empty, or a FIFO that holds this unit back until the test
// writes to it (test/driver/streaming.test).
#include "block.h"
#include "shared.h"

void trainB() {
  auto loader = torch::data::make_data_loader(Points(), 16);
}
