-- CALL: named and positional constant arguments (docs/SQL.md "CALL").
call show_commits(table => 'hudi_table', limit => 10);
CALL show_commit_files(table => 'hudi_table', instant_time => '20230216144548249');
call rollback_to_instant(table => 'hudi_table', instant_time => '20220109225319449');
call create_savepoint(table => 'hudi_table', commit_time => '20220109225319449', user => "me", comments => 'c' 'd');
call show_savepoints(table => 'hudi_table');
call rollback_to_savepoint(table => 'hudi_table', instant_time => '20220109225319449');
call run_compaction(op => 'run', table => 'hudi_table', options => 'hoodie.compaction.strategy=org.apache.hudi.table.action.compact.strategy.LogFileNumBasedCompactionStrategy,hoodie.compaction.logfile.num.threshold=3');
call run_clean(table => 'hudi_table', retain_commits => 1, skip_locking => true);
call show_table_properties(table => 'hudi_table', limit => -1);
call show_fs_path_detail(path => '/tmp/hudi', is_sub => false, sort => true);
call help(cmd => 'show_commits');
CALL system.show_commits('hudi_table', 5);
call help();
call x(m => map('a', 1, 'b', 2), d => date '2023-01-01', n => null);
