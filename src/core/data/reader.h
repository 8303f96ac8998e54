/* reader.h -- data file readers (CSV, TSV, LibSVM; gzip detected by content). */
#ifndef GPL_READER_H
#define GPL_READER_H

#include "dataset.h"

/* Each returns a complete dataset, or an error whose message names the file,
 * and where it applies the line and column. Nothing is leaked on error. */
gpulayer_status gpl_read_delimited(const char *path, char delimiter,
                                   const gpulayer_read_options *opts,
                                   gpulayer_dataset **out);
gpulayer_status gpl_read_libsvm(const char *path,
                                const gpulayer_read_options *opts,
                                gpulayer_dataset **out);

#endif
