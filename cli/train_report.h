/* train_report.h -- `gpulayer train --report FILE`: one self-contained HTML
 * page on a finished training (the command, a summary of the data,
 * learning curves and the best round's metrics, feature importance,
 * parameters, the devices considered, time and memory), for reading in a
 * browser with no network. */
#ifndef GPL_CLI_TRAIN_REPORT_H
#define GPL_CLI_TRAIN_REPORT_H

#include "gpulayer.h"
#include "train_history.h"

typedef struct train_report {
    const char *command;       /* the command line, as typed */
    const char *data;          /* --data */
    const gpulayer_dataset *train; /* the training rows */
    const char *const *valid;  /* the --valid files */
    const gpulayer_dataset *const *valid_sets; /* their rows */
    int num_valid;
    const char *model;         /* where the model was saved */
    double train_seconds;      /* the training call, this run's rounds */
    int ranks;                 /* processes of the job; 1 alone */
    const train_history *history;
} train_report;

/* Writes the report on trained booster b to path, atomically. On failure
 * prints why, naming path, and returns 1; else 0. */
int train_report_write(const char *path, const gpulayer_booster *b, const train_report *r);

#endif
