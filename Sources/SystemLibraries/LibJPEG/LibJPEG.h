/* The system library LibJPEG (Debian: libjpeg62-turbo-dev), found through pkg-config (libjpeg). */
#include <stdio.h>
#include <jpeglib.h>
