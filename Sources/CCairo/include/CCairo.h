#ifndef CCAIRO_H
#define CCAIRO_H
#include <cairo.h>
#include <cairo-pdf.h>
#include <cairo-svg.h>
#endif
