import GRDB

extension JobLedger {
    /// The ledger's schema, one registered migration per change (applied in order, once each,
    /// inside a transaction; a newer ledger opened by an older binary fails instead of guessing).
    static var migrator: DatabaseMigrator {
        var migrator = DatabaseMigrator()
        migrator.registerMigration("v1: jobs, events, runners") { db in
            try db.create(table: "job") { t in
                t.primaryKey("id", .text)
                t.column("spec", .text).notNull()
                t.column("specDigest", .text).notNull()
                t.column("isValid", .boolean).notNull()
                t.column("state", .text).notNull()
                    .check(sql: "state IN ('queued', 'running', 'completed', 'failed', 'cancelled')")
                t.column("priority", .integer).notNull().defaults(to: 0)
                t.column("sequence", .integer).notNull()
                t.column("stage", .text)
                t.column("progress", .double).notNull().defaults(to: 0)
                t.column("etaSeconds", .double)
                t.column("attempts", .integer).notNull().defaults(to: 0)
                t.column("failures", .integer).notNull().defaults(to: 0)
                t.column("interruptions", .integer).notNull().defaults(to: 0)
                t.column("completions", .integer).notNull().defaults(to: 0).check(sql: "completions <= 1")
                t.column("notBefore", .double)
                t.column("enqueuedAt", .double).notNull()
                t.column("startedAt", .double)
                t.column("finishedAt", .double)
                t.column("updatedAt", .double).notNull()
                t.column("error", .text)
                t.column("outputDirectory", .text)
                t.column("outputs", .text)
                t.column("runnerID", .text)
                t.column("cancelRequested", .boolean).notNull().defaults(to: false)
                t.column("imageCount", .integer).notNull().defaults(to: 0)
                t.column("largestImagePixels", .integer).notNull().defaults(to: 0)
            }
            try db.create(index: "job_queue", on: "job", columns: ["state", "priority", "sequence"])
            try db.create(table: "jobEvent") { t in
                t.autoIncrementedPrimaryKey("id")
                t.column("jobID", .text).notNull().indexed()
                t.column("at", .double).notNull()
                t.column("kind", .text).notNull()
                t.column("attempt", .integer).notNull()
                t.column("runnerID", .text)
                t.column("detail", .text)
            }
            // The history is append-only: the database refuses to change or delete events.
            try db.execute(sql: """
                CREATE TRIGGER jobEvent_no_update BEFORE UPDATE ON jobEvent BEGIN SELECT RAISE(ABORT, 'job events are append-only'); END;
                CREATE TRIGGER jobEvent_no_delete BEFORE DELETE ON jobEvent BEGIN SELECT RAISE(ABORT, 'job events are append-only'); END;
                """)
            try db.create(table: "runner") { t in
                t.primaryKey("id", .text)
                t.column("pid", .integer).notNull()
                t.column("host", .text).notNull()
                t.column("bootID", .text).notNull()
                t.column("processStart", .integer).notNull()
                t.column("startedAt", .double).notNull()
                t.column("heartbeatAt", .double).notNull()
                t.column("workers", .integer).notNull()
            }
        }
        migrator.registerMigration("v2: the Slurm task holding each job") { db in
            try db.alter(table: "job") { t in
                t.add(column: "slurmJobID", .text)
            }
        }
        return migrator
    }
}
