/* The system library LibEspeakNG (Debian: libespeak-ng-dev), found through pkg-config (espeak-ng). */
#include <espeak-ng/speak_lib.h>
