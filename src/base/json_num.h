/* json_num.h -- exact, locale-independent decimal text for floating values
 * written into JSON documents (model files and exports). */
#ifndef GPL_JSON_NUM_H
#define GPL_JSON_NUM_H

#include <stddef.h>

/* Room for any text these functions produce, with the terminating NUL. */
#define GPL_NUM_TEXT_SIZE 32

/* The shortest decimal text (at most 9 significant digits) that strtof
 * reads back as exactly f. Always uses '.' as the decimal point. f must be
 * finite. Returns the length of the text. */
int gpl_format_float(float f, char buf[GPL_NUM_TEXT_SIZE]);

/* The same for a double (at most 17 significant digits); integral values
 * below 1e15 in magnitude are written without exponent or fraction. */
int gpl_format_double(double d, char buf[GPL_NUM_TEXT_SIZE]);

/* The double whose shortest text is that of f: the value a JSON reader
 * obtains from gpl_format_float's text. Converting it back to float gives
 * exactly f. */
double gpl_float_as_decimal(float f);

#endif
