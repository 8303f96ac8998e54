/* label_classes.h -- class names as labels: a label column of text becomes
 * class codes 0..K-1 in sorted name order (scikit-learn's LabelEncoder),
 * and the names travel with the dataset and then the model. */
#ifndef GPL_LABEL_CLASSES_H
#define GPL_LABEL_CLASSES_H

#include <stddef.h>
#include <stdint.h>

#include "dataset.h"
#include "params.h"

/* The state of one label column while a file is read. */
typedef struct gpl_label_reader {
    /* The classes to map to (a model's), or NULL to collect them. */
    const gpl_category_dict *fixed;
    struct gpl_strtab *names;    /* names seen, in order of appearance */
    int64_t numbers, texts;      /* cells of each kind so far */
    int64_t first_line;          /* line of the first cell */
    char first_text[44];         /* and its text, for messages */
} gpl_label_reader;

enum { GPL_LABEL_OK = 0, GPL_LABEL_REFUSED = 1, GPL_LABEL_NOMEM = -1 };

/* Reads one non-missing label cell s[0..len) found at line: a number, or
 * a class name whose id goes into *out. GPL_LABEL_REFUSED with the reason
 * in why (mixed numbers and names, a name the fixed classes lack, text
 * that is not UTF-8 or not finite), GPL_LABEL_NOMEM with the error set. */
int gpl_label_read(gpl_label_reader *lr, const char *s, size_t len, int64_t line,
                   float *out, char *why, size_t why_size);

/* After the last row: with names collected, renumbers labels[0..rows)
 * from appearance ids to sorted codes and gives the names in *classes;
 * with fixed classes, a copy of them when any cell was a name; NULL when
 * the labels are numbers. */
gpulayer_status gpl_label_finish(gpl_label_reader *lr, float *labels, int64_t rows,
                                 gpl_category_dict **classes);
void gpl_label_reader_free(gpl_label_reader *lr);

/* Training on class names: the objective must classify; multi:* takes
 * num_class from the names when it is not given (else they must agree),
 * binary:* needs two names. Evaluation sets with names must have the
 * training data's. p is the run's own copy of the parameters. */
gpulayer_status gpl_label_classes_check(gpl_params *p, const gpulayer_dataset *train,
                                        const gpulayer_dataset *const *evals,
                                        int num_evals);

/* The sorted, unique names of a NULL-terminated list (read options'
 * label_classes) as a dictionary in *out; NULL for a NULL list. */
gpulayer_status gpl_label_classes_from_list(const char *const *names,
                                            gpl_category_dict **out);

/* Whether two class lists are the same names in the same order (NULL is
 * numeric labels). */
int gpl_label_classes_equal(const gpl_category_dict *a, const gpl_category_dict *b);

#endif
