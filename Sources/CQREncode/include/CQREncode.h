#ifndef CQRENCODE_H
#define CQRENCODE_H
#include <qrencode.h>
#endif
