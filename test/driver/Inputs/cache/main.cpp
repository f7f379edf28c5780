#include "train.h"

#ifdef WITH_MAIN_LOADER
void train() {
  auto loader = torch::data::make_data_loader(Points(), 32);
}
#endif
