// The one translation unit that compiles stb's implementations (Debian's libstb-dev ships
// headers only, docs/adr/0037).
#define STB_IMAGE_IMPLEMENTATION
#define STB_IMAGE_RESIZE_IMPLEMENTATION
#define STB_IMAGE_WRITE_IMPLEMENTATION
#include "image/StbBindings.hpp"
